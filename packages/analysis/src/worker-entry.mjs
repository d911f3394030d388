// Worker-thread bootstrap: the package ships TypeScript sources, so register tsx's loader first.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
