import { useEffect, useState } from 'react';

/** Seconds left from `seconds` down to 0; restart by changing `key`. */
export function useCountdown(seconds: number, key: unknown = 0): number {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    setLeft(seconds);
    const started = Date.now();
    const id = window.setInterval(() => {
      const remaining = Math.max(0, seconds - Math.floor((Date.now() - started) / 1000));
      setLeft(remaining);
      if (remaining === 0) window.clearInterval(id);
    }, 250);
    return () => window.clearInterval(id);
  }, [seconds, key]);
  return left;
}
