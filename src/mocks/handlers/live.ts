import { ws } from 'msw';
import type { ClientMessage, ServerMessage } from '../../../contract/live';
import { nowIso, store, toPublicUser, userForToken } from '../store';
import { alarmsMock } from './alarms';

/** The live socket of the mocks: same handshake as the server (first message carries the token). */
export const liveSocket = ws.link(/\/ws$/);

export const liveHandlers = [
  liveSocket.addEventListener('connection', ({ client }) => {
    if (!store.liveAvailable) {
      client.close(1011, 'Live feed unavailable');
      return;
    }
    let authenticated = false;
    const send = (message: ServerMessage) => client.send(JSON.stringify(message));
    client.addEventListener('message', (event) => {
      let message: ClientMessage;
      try {
        message = JSON.parse(String(event.data)) as ClientMessage;
      } catch {
        return;
      }
      if (!authenticated) {
        const user = message.action === 'client_connected' ? userForToken(message.token) : undefined;
        if (!user) {
          client.close(1008, 'Authentication required');
          return;
        }
        authenticated = true;
        send({ type: 'welcome', data: { user: toPublicUser(user), server_time: nowIso() } });
        send({
          type: 'initial_data',
          data: { instances: store.instances, recordings: store.recordings, system_status: store.systemStatus },
        });
        send({ type: 'alarms', data: { alarms: alarmsMock().filter((alarm) => alarm.resolved_at === null) } });
        return;
      }
      if (message.action === 'ping') send({ type: 'pong', timestamp: nowIso() });
    });
  }),
];
