import type { ServerModule } from '../../lib/server-module';
import type { AlarmsService } from '../alarms';
import { ContentAlarms } from './content-alarms';

export { ContentAlarms, contentWarning, withContentWarning, type ContentSubject } from './content-alarms';

export interface ContentModuleDeps {
  alarms: Pick<AlarmsService, 'raise' | 'resolve'>;
  /** CONTENT_ALARM_SECONDS: how long a condition lasts before it is alarmed. */
  thresholdSeconds: number;
}

/**
 * Content assurance (docs/operations/content-assurance.md): the recorders measure what they record,
 * and this module turns the conditions they report (silent, no sound track, frozen or black picture)
 * into alarms. The recordings module checks every reading with it, so it has no routes or work of its own.
 */
export function createContentModule(deps: ContentModuleDeps): ServerModule<ContentAlarms> {
  return { service: new ContentAlarms(deps.alarms, deps.thresholdSeconds), register: () => undefined };
}
