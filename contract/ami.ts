import { z } from 'zod';
import { envelope, instantSchema } from './common';
import { refuseFormatControls } from './display-text';
import { captureProviderKindSchema, hasControlCharacters, resourceIdSchema } from './instances';

export const amiStateSchema = z.enum(['available', 'pending', 'failed']);
export type AmiState = z.infer<typeof amiStateSchema>;

/** docs/reference.md section 3, AMI; `tags` and `source_instance_id` are extra fields the details may show. */
export const amiSchema = z.object({
  ami_id: z.string(),
  name: z.string(),
  description: z.string(),
  version: z.string(),
  state: amiStateSchema,
  size_gb: z.number(),
  created_at: instantSchema,
  is_latest: z.boolean(),
  tags: z.record(z.string(), z.string()),
  source_instance_id: z.string().nullable(),
});
export type Ami = z.infer<typeof amiSchema>;

export const AMI_NAME_MAX_LENGTH = 100;
/** Semantic version, like 1.0.0 (docs/reference.md section 5, Create AMI). */
export const SEMVER_PATTERN = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** Name characters EC2 accepts for an image; a timestamp is appended by the server. */
const amiName = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(AMI_NAME_MAX_LENGTH, `Name must be at most ${AMI_NAME_MAX_LENGTH} characters`)
  .regex(/^[A-Za-z0-9 ()[\]./'@_-]+$/, "Name may contain letters, digits, spaces and ( ) [ ] . / - ' @ _");

const tagKey = z
  .string()
  .min(1)
  .max(128)
  .refine((key) => !hasControlCharacters(key), 'Tag keys may not contain control characters')
  .refine((key) => !key.toLowerCase().startsWith('aws:'), 'Tag keys may not start with aws:');

export const amiCreateRequestSchema = z.strictObject({
  instance_id: resourceIdSchema,
  name: amiName,
  description: z
    .string()
    .trim()
    .max(255)
    .refine((text) => !hasControlCharacters(text, '\t\n\r'), 'Description may not contain control characters')
    .superRefine(refuseFormatControls('Description'))
    .default(''),
  version: z
    .string()
    .trim()
    .min(1, 'Version is required')
    .regex(SEMVER_PATTERN, 'Version must be semantic, like 1.0.0'),
  tags: z
    .record(
      tagKey,
      z
        .string()
        .max(256)
        .refine((value) => !hasControlCharacters(value), 'Tag values may not contain control characters')
        .superRefine(refuseFormatControls('Tag values')),
    )
    .refine((tags) => Object.keys(tags).length <= 40, 'At most 40 tags')
    .default({}),
});
export type AmiCreateRequest = z.input<typeof amiCreateRequestSchema>;

/**
 * GET /api/amis: the images, and where this server's recorders run (`provider`): on `local` an image
 * is optional (a recorder records without one), on `aws` every launch needs one.
 */
export const amiListResponseSchema = envelope(
  z.object({ amis: z.array(amiSchema), provider: captureProviderKindSchema }),
);
export type AmiList = z.infer<typeof amiListResponseSchema>['data'];

export const amiCreateResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ ami_id: z.string(), name: z.string(), state: amiStateSchema }),
});
export type AmiCreateResponse = z.infer<typeof amiCreateResponseSchema>;

export const amiIdParamsSchema = z.strictObject({ ami_id: resourceIdSchema });

export const amiDeleteResponseSchema = z.object({ success: z.literal(true), message: z.string() });
export type AmiDeleteResponse = z.infer<typeof amiDeleteResponseSchema>;
