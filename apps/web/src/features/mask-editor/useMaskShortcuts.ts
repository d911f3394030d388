import { useEffect } from 'react';
import { redo, undo, type History } from './maskState';
import { LABEL_COUNT, type Tool } from './maskImage';

/** Keyboard: Ctrl/Cmd+Z undo, Shift+Ctrl+Z or Ctrl+Y redo, B/E/F/H tools, 1–4 labels (not while typing). */
export function useMaskShortcuts(act: (fn: (h: History) => History) => void, setTool: (t: Tool) => void, setLabel: (l: number) => void) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.target as HTMLElement).closest('input, textarea')) return;
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key.toLowerCase() === 'z') {
        e.preventDefault();
        act(e.shiftKey ? redo : undo);
      } else if (mod && e.key.toLowerCase() === 'y') {
        e.preventDefault();
        act(redo);
      } else if (!mod && e.key === 'b') setTool('paint');
      else if (!mod && e.key === 'e') setTool('erase');
      else if (!mod && e.key === 'f') setTool('fill');
      else if (!mod && e.key === 'h') setTool('pan');
      else if (!mod && /^[1-9]$/.test(e.key) && Number(e.key) <= LABEL_COUNT) setLabel(Number(e.key));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [act, setTool, setLabel]);
}
