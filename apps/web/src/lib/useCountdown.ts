import { useEffect, useState } from 'react';

/** Seconds left from `seconds` down to 0; restart by changing `key`. */
export function useCountdown(seconds: number, key: unknown = 0): number {
  const [state, setState] = useState({ seconds, key, left: seconds });
  // A new `seconds` or `key` restarts the count (adjusted during render, not in an effect).
  if (state.seconds !== seconds || state.key !== key) setState({ seconds, key, left: seconds });
  useEffect(() => {
    const started = Date.now();
    const id = window.setInterval(() => {
      const remaining = Math.max(0, seconds - Math.floor((Date.now() - started) / 1000));
      setState((s) => (s.left === remaining ? s : { ...s, left: remaining }));
      if (remaining === 0) window.clearInterval(id);
    }, 250);
    return () => window.clearInterval(id);
  }, [seconds, key]);
  return state.seconds !== seconds || state.key !== key ? seconds : state.left;
}
