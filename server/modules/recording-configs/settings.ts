import type { Config } from '../../config';

/** The settings of the mosques / recording-configuration part (validated with the rest in server/config.ts). */
export type ConfigModuleSettings = Pick<Config, 'streamUrlTemplate' | 'mapsLinkResolveOrigin' | 'mapsLinkTimeoutMs'>;
