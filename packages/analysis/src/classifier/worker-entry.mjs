// Worker-thread bootstrap of the classifier worker (trainer.ts): tsx's loader first, as ../worker-entry.mjs does.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
