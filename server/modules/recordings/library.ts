import path from 'node:path';
import { z } from 'zod';
import {
  recordingsDeletedMessage,
  type LibraryRecording,
  type MediaLinkResponse,
  type MediaRendition,
  type RecordingBulkFailure,
  type RecordingContent,
  type RecordingDetails,
  type RecordingsBulkDeleteResult,
  type RecordingsMediaLinks,
  type StorageUsage,
} from '../../../contract/recordings';
import { contentFileOf } from '../../../recorder/protocol';
import { contentResponse, recordingContentFileSchema } from '../../capture/content-schema';
import type { Clock } from '../../lib/clock';
import { conflict, HttpError, notFound } from '../../lib/http-error';
import type { RecordingStore } from '../../storage';
import { UsageMemo, USAGE_REMEASURE_AGE_MS } from '../../storage/usage-memo';
import type { ActivityActor, ActivityService } from '../activity';
import type { AudioRenditions, StoredMedia } from './audio-rendition';
import type { LibraryFilter, LibraryRow, RecordingsLibraryRepository } from './library-repository';
import type { MediaLinks } from './media-links';
import { toRecording, type RecordingRow } from './repository';

export interface RecordingsLibraryDeps {
  repository: RecordingsLibraryRepository;
  store: RecordingStore;
  links: MediaLinks;
  /** Whether a session is still live: a signed media link works only while the session that made it does. */
  sessionLive: (sessionId: string) => Promise<boolean>;
  clock: Clock;
  activity: ActivityService;
  /** RETENTION_DAYS, or null to keep recordings until deleted. */
  retentionDays: number | null;
  /** Reaches media another server holds (several servers); absent (one server), such media is not here. */
  elsewhere?: RecordingsElsewhere;
  /** The audio-only files, made when first asked for. */
  audio: AudioRenditions;
}

/** How long asking for an audio link waits for its file before answering that it is being prepared. */
export const AUDIO_LINK_WAIT_MS = 10_000;

/** What this server asks of the server whose disk holds a recording's file (`filePath`, absolute there). */
export interface RecordingsElsewhere {
  /** Its media, Range and download passed on: that server's answer. */
  media(id: string, filePath: string, request: { range?: string; download?: boolean }): Promise<Response>;
  /** Deletes it there, file and row (throws when that server is down or refuses: nothing is then deleted). */
  delete(id: string, filePath: string, actor: ActivityActor | null): Promise<void>;
}

/** The store a recording's media was written to: a local file has an absolute path, a bucket's object a key. */
function storeOf(row: RecordingRow): 'local' | 's3' {
  return row.file_path && !path.isAbsolute(row.file_path) ? 's3' : 'local';
}

/** Where a recording's media is in the store: a local file's path below the store's folder, else its key. */
function mediaKey(row: RecordingRow, store: RecordingStore): string | null {
  if (!row.file_path || storeOf(row) !== store.kind) return null;
  if (store.kind !== 'local') return row.file_path;
  const root = store.location.slice('local:'.length);
  const relative = path.relative(root, path.resolve(row.file_path));
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative)
    ? relative.split(path.sep).join('/')
    : null;
}

/**
 * A finished recording's file written by a server whose local store is another folder than this
 * one's (servers sharing a database, each with its own DATA_DIR): its absolute path, else null.
 */
function heldElsewhere(row: RecordingRow, store: RecordingStore): string | null {
  if (store.kind !== 'local' || storeOf(row) !== 'local' || !row.file_path || row.status === 'recording') return null;
  return mediaKey(row, store) === null ? path.resolve(row.file_path) : null;
}

/** Browse, play, download and delete recordings; report the store's space. */
export class RecordingsLibrary {
  private readonly usage: UsageMemo;

  private readonly elsewhere: RecordingsElsewhere | undefined;

  constructor(private readonly deps: RecordingsLibraryDeps) {
    this.usage = new UsageMemo(deps.store, deps.clock);
    this.elsewhere = deps.elsewhere;
  }

  /** The answer of the server holding a recording's file (throws a 503 naming it when it is down). */
  fetchElsewhere(id: string, filePath: string, request: { range?: string; download?: boolean }): Promise<Response> {
    if (!this.elsewhere)
      throw notFound(`Recording ${id} has no media to play on this server (its file is ${filePath})`);
    return this.elsewhere.media(id, filePath, request);
  }

  private toEntry(row: LibraryRow): LibraryRecording {
    const available =
      row.status !== 'recording' &&
      Number(row.bytes) > 0 &&
      (mediaKey(row, this.deps.store) !== null || heldElsewhere(row, this.deps.store) !== null);
    const recording = toRecording(row);
    return {
      ...recording,
      download_url: available ? recording.download_url : null,
      mosque_name: row.mosque_name,
      friday: row.friday,
      job_id: row.job_id,
      media_available: available,
      store: storeOf(row),
    };
  }

  async page(query: LibraryFilter): Promise<{ recordings: LibraryRecording[]; total: number }> {
    const { rows, total } = await this.deps.repository.page(query);
    return { recordings: rows.map((row) => this.toEntry(row)), total };
  }

  private async row(id: string): Promise<LibraryRow> {
    const row = await this.deps.repository.find(id);
    if (!row) throw notFound(`Recording ${id} not found`);
    return row;
  }

  async details(id: string): Promise<RecordingDetails> {
    const row = await this.row(id);
    const key = mediaKey(row, this.deps.store);
    const folder = key ? key.slice(0, key.lastIndexOf('/') + 1) : null;
    const objects = folder ? await this.deps.store.list(folder) : [];
    const files = objects.map((o) => ({ name: o.key.slice(folder?.length ?? 0), bytes: o.size }));
    return { ...this.toEntry(row), files };
  }

  /**
   * What the recorder measured of a finished recording's content, from the content file beside its
   * media: null while it records, and when it has none (not measured, or a recorder from before). A
   * file that is not one is an error naming it, not an empty strip.
   */
  async content(id: string): Promise<RecordingContent | null> {
    const row = await this.row(id);
    const key = row.status === 'recording' ? null : mediaKey(row, this.deps.store);
    const stored = key ? await this.deps.store.stat(contentFileOf(key)) : null;
    if (!key || !stored) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of await this.deps.store.read(contentFileOf(key)))
      chunks.push(Buffer.from(chunk as Uint8Array));
    let parsed;
    try {
      parsed = recordingContentFileSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    } catch (error) {
      throw new HttpError(502, `The content readings of recording ${id} are not JSON: ${(error as Error).message}`);
    }
    if (!parsed.success)
      throw new HttpError(
        502,
        `The content readings of recording ${id} are not a recorder's: ${z.prettifyError(parsed.error)}`,
      );
    return contentResponse(parsed.data.summary, parsed.data.windows);
  }

  /**
   * Where a recording's media is: in this server's store, or (local stores of several servers) a file
   * on another server's disk, its absolute path there.
   */
  async locate(id: string): Promise<{ here: StoredMedia } | { elsewhere: string }> {
    const row = await this.row(id);
    const elsewhere = heldElsewhere(row, this.deps.store);
    return elsewhere ? { elsewhere } : { here: await this.mediaOf(row) };
  }

  /** The media of a recording that has some: its key and size in the store. */
  async media(id: string): Promise<StoredMedia> {
    return this.mediaOf(await this.row(id));
  }

  /** The audio-only file of a finished recording in this server's store, made first when it is not there yet. */
  async audio(id: string): Promise<StoredMedia> {
    return this.deps.audio.get(await this.audioSource(id));
  }

  /**
   * The media an audio-only file is made from: a finished recording's, in this server's store. One on
   * another server's disk is refused (that server would have to make it; not done yet).
   */
  private async audioSource(id: string): Promise<StoredMedia> {
    const row = await this.row(id);
    if (row.status === 'recording')
      throw conflict(`Recording ${id} is still recording: its audio is made once it ends`);
    const elsewhere = heldElsewhere(row, this.deps.store);
    if (elsewhere)
      throw new HttpError(
        501,
        `Recording ${id} is on another server's disk (${elsewhere}): its audio alone is served only for recordings in this server's store`,
      );
    return this.mediaOf(row);
  }

  private async mediaOf(row: LibraryRow): Promise<StoredMedia> {
    const { id } = row;
    const key = mediaKey(row, this.deps.store);
    const stored = key ? await this.deps.store.stat(key) : null;
    if (!key || !stored || stored.size === 0) throw notFound(`Recording ${id} has no media to play`);
    return { key, size: stored.size, name: path.posix.basename(key) };
  }

  /**
   * A signed link to a recording's media, or to its audio-only file: that one is made first (waited
   * for up to AUDIO_LINK_WAIT_MS, then `preparing` while it goes on; a failed encode is answered).
   */
  async mediaLink(id: string, sessionId: string, rendition?: MediaRendition): Promise<MediaLinkResponse['data']> {
    let preparing = false;
    if (rendition === 'audio')
      preparing = (await this.deps.audio.prepare(await this.audioSource(id), AUDIO_LINK_WAIT_MS)) === 'preparing';
    else await this.locate(id);
    const { token, expiresAt } = this.deps.links.issue(id, sessionId, this.deps.clock.now(), rendition);
    const query = rendition ? `rendition=${rendition}&token=${token}` : `token=${token}`;
    return {
      url: `/api/recordings/${encodeURIComponent(id)}/media?${query}`,
      expires_at: expiresAt.toISOString(),
      ...(rendition ? { preparing } : {}),
    };
  }

  async verifyLink(id: string, token: string, rendition?: MediaRendition): Promise<boolean> {
    const sessionId = this.deps.links.verify(id, token, this.deps.clock.now(), rendition);
    return sessionId !== null && (await this.deps.sessionLive(sessionId));
  }

  /**
   * Removes a finished recording's media and its row. A file on another server's disk is deleted by
   * that server (file and row there); while it is down, nothing is deleted and the error names it.
   */
  async delete(id: string, actor: ActivityActor | null): Promise<void> {
    const row = await this.row(id);
    if (row.status === 'recording') throw conflict(`Recording ${id} is still recording: terminate its instance first`);
    const elsewhere = heldElsewhere(row, this.deps.store);
    // One server alone (no other to reach) deletes the row of a file outside its store, as it always did.
    if (elsewhere && this.elsewhere) return this.elsewhere.delete(id, elsewhere, actor);
    await this.deleteHere(row, actor, 'operator');
  }

  /**
   * Deletes a recording whose file is on this server's disk, for the server an operator asked
   * (never passed on again: a file not here is a 404).
   */
  async deleteHeldHere(id: string, actor: ActivityActor | null): Promise<void> {
    const row = await this.row(id);
    if (row.status === 'recording') throw conflict(`Recording ${id} is still recording: terminate its instance first`);
    if (mediaKey(row, this.deps.store) === null) throw notFound(`Recording ${id} has no file on this server's disk`);
    await this.deleteHere(row, actor, 'operator');
  }

  private async deleteHere(row: LibraryRow, actor: ActivityActor | null, why: 'operator' | 'retention'): Promise<void> {
    const { id } = row;
    const key = mediaKey(row, this.deps.store);
    if (key) {
      // A recording's own folder (`…/<recording id>/`) goes whole: its segments and metadata.json with its file.
      const folder = key.slice(0, key.lastIndexOf('/') + 1);
      await this.deps.store.deletePrefix(folder.endsWith(`/${row.id}/`) ? folder : key);
      this.usage.invalidate();
    }
    if (!(await this.deps.repository.delete(id)))
      throw conflict(`Recording ${id} is still recording: terminate its instance first`);
    await this.deps.activity.record({
      actor,
      action: why === 'retention' ? 'recording.expire' : 'recording.delete',
      target: { type: 'recording', id, label: row.mosque_name ? `${row.mosque_name} ${row.friday}` : id },
      detail: { mosque_id: row.mosque_id, friday: row.friday, bytes: Number(row.bytes), status: row.status },
    });
  }

  /** Signed download links of many recordings; one without media (or gone) is named with the reason. */
  async mediaLinks(ids: string[], sessionId: string): Promise<RecordingsMediaLinks> {
    const links: RecordingsMediaLinks['links'] = [];
    const failed: RecordingBulkFailure[] = [];
    for (const id of ids) {
      try {
        const link = await this.mediaLink(id, sessionId);
        links.push({ id, url: `${link.url}&download=1`, expires_at: link.expires_at });
      } catch (error) {
        failed.push({ id, reason: reasonOf(error) });
      }
    }
    return { links, failed };
  }

  /** Deletes many recordings one by one, each as its single delete (media, row, activity entry); a failure stops only its own. */
  async deleteMany(
    ids: string[],
    actor: ActivityActor | null,
  ): Promise<{ message: string; data: RecordingsBulkDeleteResult }> {
    const deleted: string[] = [];
    const failed: RecordingBulkFailure[] = [];
    for (const id of ids) {
      try {
        await this.delete(id, actor);
        deleted.push(id);
      } catch (error) {
        failed.push({ id, reason: reasonOf(error) });
      }
    }
    return { message: recordingsDeletedMessage(deleted.length), data: { deleted, failed } };
  }

  /**
   * Deletes recordings that ended more than RETENTION_DAYS ago; returns how many. A file on another
   * server's disk is left to that server's own pass (its row with it), so a server that is down
   * holds up nobody's retention.
   */
  async applyRetention(): Promise<number> {
    const days = this.deps.retentionDays;
    if (days === null) return 0;
    const before = new Date(this.deps.clock.now().getTime() - days * 86_400_000).toISOString();
    let removed = 0;
    let left = 0;
    for (;;) {
      const batch = await this.deps.repository.endedBefore(before, 100, left);
      for (const row of batch) {
        if (this.elsewhere && heldElsewhere(row, this.deps.store)) {
          left++;
          continue;
        }
        await this.deleteHere(await this.row(row.id), null, 'retention');
        removed++;
      }
      if (batch.length < 100) return removed;
    }
  }

  /** The store's usage; `remeasure` (an operator asked) accepts a figure no older than USAGE_REMEASURE_AGE_MS. */
  async storage(remeasure = false): Promise<StorageUsage> {
    const usage = await this.usage.read(remeasure ? USAGE_REMEASURE_AGE_MS : undefined);
    const { kind, location } = this.deps.store;
    return {
      store: kind,
      location,
      used_bytes: usage.usedBytes,
      free_bytes: usage.freeBytes,
      measured_at: usage.measuredAt,
      retention_days: this.deps.retentionDays,
    };
  }
}

/** Why one recording of a bulk action failed: our own message (not found, still recording), else the store's error named. */
function reasonOf(error: unknown): string {
  if (error instanceof HttpError) return error.message;
  return `The store failed: ${error instanceof Error ? error.message : String(error)}`;
}
