import type { FastifyBaseLogger } from 'fastify';
import type { Ami, AmiCreateRequest } from '../../../contract/ami';
import { amiCreateRequestSchema } from '../../../contract/ami';
import { providerHttpError } from '../../capture/http-errors';
import type { CaptureProvider, ProviderImage } from '../../capture/provider';
import { latestImage } from '../../capture/versions';
import type { Clock } from '../../lib/clock';
import { conflict } from '../../lib/http-error';
import type { ActivityActor, ActivityService } from '../activity';
import type { InstancesService } from '../instances';
import type { ImageRow, ImagesRepository } from './repository';

function toAmi(row: ImageRow, latestId: string | undefined): Ami {
  let tags: Record<string, string> = {};
  try {
    tags = JSON.parse(row.tags) as Record<string, string>;
  } catch {
    // keep none
  }
  return {
    ami_id: row.ami_id,
    name: row.name,
    description: row.description,
    version: row.version,
    state: row.state,
    size_gb: Number(row.size_gb),
    created_at: row.created_at,
    is_latest: row.ami_id === latestId,
    tags,
    source_instance_id: row.source_instance_id,
  };
}

/**
 * Recorder images (AMIs). The provider is the truth (image files, or EC2's DescribeImages); the
 * images table mirrors it on every list and remembers which fleet instance each came from.
 */
export class ImagesService {
  constructor(
    private readonly repository: ImagesRepository,
    private readonly driver: CaptureProvider,
    private readonly instances: InstancesService,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly activity: Pick<ActivityService, 'record'>,
  ) {}

  /** Where this server's recorders run: the console says images are optional on `local`. */
  get provider(): CaptureProvider['kind'] {
    return this.driver.kind;
  }

  async list(): Promise<Ami[]> {
    let provided: ProviderImage[];
    try {
      provided = await this.driver.listImages();
    } catch (error) {
      throw providerHttpError(error);
    }
    const known = new Set(provided.map((image) => image.imageId));
    for (const row of await this.repository.list(this.driver.scope)) {
      if (!known.has(row.ami_id)) await this.repository.delete(row.ami_id); // deleted outside the console
    }
    for (const image of provided) await this.repository.upsert(this.toRow(image, null));
    const latest = latestImage(provided)?.imageId;
    return (await this.repository.list(this.driver.scope)).map((row) => toAmi(row, latest));
  }

  /** Starts an image of an instance; the name gets a timestamp so versions never collide. */
  /** Starts making an image of a recorder; `actor` is who the activity log names (null: the system). */
  async create(
    input: AmiCreateRequest,
    actor: ActivityActor | null = null,
  ): Promise<{ ami_id: string; name: string; state: Ami['state'] }> {
    const request = amiCreateRequestSchema.parse(input);
    const instance = await this.instances.resolve(request.instance_id);
    if (!instance.provider_instance_id)
      throw conflict(`Instance ${request.instance_id} is still launching; try again in a moment`);
    if (instance.scope && instance.scope !== this.driver.scope)
      throw conflict(
        `Instance ${request.instance_id} runs elsewhere (${instance.scope}), not on this server's provider`,
      );
    const stamp = this.clock
      .now()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace('T', '-')
      .replace(/\.\d+Z$/, '');
    let image: ProviderImage;
    try {
      image = await this.driver.createImage({
        instanceId: instance.provider_instance_id,
        name: `${request.name}-${stamp}`,
        description: request.description,
        version: request.version,
        tags: request.tags,
      });
    } catch (error) {
      throw providerHttpError(error);
    }
    await this.repository.upsert(this.toRow(image, instance.id));
    this.log.info({ amiId: image.imageId, instanceId: instance.id }, 'image creation started');
    await this.activity.record({
      actor,
      action: 'image.create',
      target: { type: 'image', id: image.imageId, label: request.name },
      detail: { instance_id: request.instance_id, version: request.version },
    });
    return { ami_id: image.imageId, name: image.name, state: image.state };
  }

  async delete(amiId: string, actor: ActivityActor | null = null): Promise<void> {
    try {
      await this.driver.deleteImage(amiId);
    } catch (error) {
      throw providerHttpError(error);
    }
    await this.repository.delete(amiId);
    await this.activity.record({ actor, action: 'image.delete', target: { type: 'image', id: amiId } });
  }

  private toRow(image: ProviderImage, sourceInstanceId: string | null) {
    return {
      ami_id: image.imageId,
      provider: this.driver.kind,
      scope: this.driver.scope,
      name: image.name,
      description: image.description,
      version: image.version,
      state: image.state,
      size_gb: image.sizeGb,
      created_at: image.createdAt,
      tags: JSON.stringify(image.tags),
      source_instance_id: sourceInstanceId,
      updated_at: this.clock.now().toISOString(),
    };
  }
}
