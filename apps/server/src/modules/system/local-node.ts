/** The node of this machine (provider `local`) and its launchers: see compute-nodes/service.ts startLocalNode. */
export { LOCAL_PROVIDER, startLocalNode } from '../compute-nodes/service.ts';
