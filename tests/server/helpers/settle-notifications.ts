import type { WebhookReceiver } from '../../../testkit/webhook-receiver';
import { waitFor } from '../../../testkit/wait';
import type { TestApp } from './test-app';

/**
 * Lets every notification decision made so far reach the receiver: closes the window in progress, then
 * sends an alarm of its own through a window of its own and waits for it. The policy decides in order, so
 * anything it was going to send before is queued by then; the posts themselves run side by side (an
 * earlier one may arrive after the sentinel), so it then waits until no delivery is still owed. The
 * sentinels are `unschedulable` alarms of mosques named "Sentinel N": tests leave that kind out.
 */
export function notificationSettler(app: () => TestApp, hook: () => WebhookReceiver): () => Promise<void> {
  let sentinels = 0;
  return async function settle() {
    const t = app();
    t.clock.advance(31_000);
    const name = `Sentinel ${++sentinels}`;
    await t.app.ctx.alarms.raise({
      kind: 'unschedulable',
      key: `sentinel:${sentinels}`,
      message: 'Settles',
      mosqueName: name,
    });
    t.clock.advance(31_000);
    await waitFor(
      () =>
        hook()
          .posts()
          .some((post) => post.alarms.some((alarm) => alarm.mosque_name === name)),
      `${name} to be posted`,
      10_000,
      20,
    );
    const owed = () =>
      t.app.ctx.db.kysely
        .selectFrom('alarm_deliveries')
        .select('id')
        .where('state', 'in', ['pending', 'retrying'])
        .execute();
    await waitFor(async () => (await owed()).length === 0, 'every delivery to be made', 10_000, 20);
  };
}
