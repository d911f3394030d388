import { VIEWING_EVENT } from '@lamella/contracts';
import { useEffect } from 'react';
import { acquireSocket, releaseSocket } from '../jobs/api';

/**
 * Tells the server that this page shows the results of `modelId` (again after a reconnect), so jobs of that
 * model that end meanwhile are seen here rather than notified in the bell; leaving the page says so.
 */
export function useViewingModel(modelId: string | undefined) {
  useEffect(() => {
    if (!modelId) return;
    const socket = acquireSocket();
    const announce = () => socket.emit(VIEWING_EVENT, { modelId });
    if (socket.connected) announce();
    socket.on('connect', announce);
    return () => {
      socket.off('connect', announce);
      socket.emit(VIEWING_EVENT, { modelId: null });
      releaseSocket();
    };
  }, [modelId]);
}
