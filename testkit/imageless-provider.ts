import { ProviderError, type CreateImageRequest, type ProviderImage } from '../server/capture/provider';

/**
 * The image and log side of a CaptureProvider for the in-memory drivers (the live-feed benchmark, the
 * season's simulated fleet): they run no recorder runtime, so they keep no logs and make no images.
 */
export abstract class ImagelessProvider {
  /** How the driver names itself in its refusals ("The simulated fleet"). */
  protected abstract readonly title: string;

  async logs(): Promise<string[]> {
    return [];
  }

  createImage(request: CreateImageRequest): Promise<ProviderImage> {
    return Promise.reject(new ProviderError('invalid', `${this.title} makes no images (asked for ${request.name})`));
  }

  async listImages(): Promise<ProviderImage[]> {
    return [];
  }

  deleteImage(imageId: string): Promise<void> {
    return Promise.reject(new ProviderError('not_found', `No image ${imageId}`));
  }
}
