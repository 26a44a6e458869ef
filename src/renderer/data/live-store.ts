// The window's one live store, fed by the event bridge.
import { createLiveStore } from './live';

export const liveStore = createLiveStore();
