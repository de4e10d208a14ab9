import v8 from 'node:v8';
import vm from 'node:vm';

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
let fullCollection: Collect | undefined;

/**
 * A full garbage collection, asked for once a fleet-sized batch is done with what it read. Such a
 * batch (planning 10,000 mosques) keeps its arrays alive across many young-generation collections,
 * so they are promoted and stay in the old generation after the batch, where V8 only collects them
 * once the heap grows again: a server at rest after planning held some 70 MB of that garbage for
 * good. The collection pauses the event loop once per such batch (150-400 ms more for a plan of
 * 10,000 mosques in bench/scheduler.ts, inside its 2 s budget): a start or a weekly plan, not a
 * request. An ordinary full collection cost less but left RSS at 2.6x bare Fastify.
 */
export function collectGarbage(): void {
  if (!fullCollection) {
    // Exposes `gc` to contexts made from here on only; the server's own context is unchanged.
    v8.setFlagsFromString('--expose-gc');
    fullCollection = vm.runInNewContext('gc') as Collect;
  }
  // The last-resort flavour also hands the emptied pages back to the system, as V8 does when memory runs low.
  fullCollection({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
