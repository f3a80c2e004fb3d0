import { z } from 'zod';

/**
 * The school's logo (Settings → School Information): PNG or JPEG, at most 300 KB, sent as base64
 * JSON (the app takes JSON bodies only, up to 1 MB). The type is read from the file's first bytes,
 * never from its name or a declared type.
 */

export const LOGO_MAX_BYTES = 300 * 1024;

export const LOGO_TEXTS = {
  required: 'Choose a logo image to upload.',
  notBase64: 'The logo could not be read. Choose the image again.',
  tooLarge: 'The logo is larger than 300 KB. Choose a smaller image.',
  wrongType: 'The logo must be a PNG or JPEG image.',
  uploaded: 'The school logo has been saved.',
  removed: 'The school logo has been removed.',
  none: 'The school has no logo.',
  // the Settings card
  title: 'School Logo',
  description: 'Printed on receipts. PNG or JPEG, up to 300 KB.',
  choose: 'Upload Logo',
  replace: 'Replace Logo',
  remove: 'Remove Logo',
  uploading: 'Uploading...',
  empty: 'No logo yet',
  alt: 'School logo',
  uploadFailed: 'Upload Failed',
  tryAgain: 'The logo could not be saved. Please try again.',
  removeFailed: 'Remove Failed',
  saved: 'Logo Saved',
  removedTitle: 'Logo Removed',
} as const;

export type LogoType = 'image/png' | 'image/jpeg';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

/** PNG or JPEG by their magic bytes; null for anything else. */
export function logoTypeOf(bytes: Uint8Array): LogoType | null {
  const starts = (sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(PNG)) return 'image/png';
  if (starts(JPEG)) return 'image/jpeg';
  return null;
}

// base64 of 300 KB is 409,600 characters; a data: URL prefix is allowed and dropped
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export const logoUploadSchema = z.object({
  image: z
    .string({ error: LOGO_TEXTS.required })
    .trim()
    .min(1, LOGO_TEXTS.required)
    .transform((value) => value.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, ''))
    .refine((value) => value.length <= Math.ceil(LOGO_MAX_BYTES / 3) * 4, LOGO_TEXTS.tooLarge)
    .refine((value) => value.length % 4 === 0 && BASE64.test(value), LOGO_TEXTS.notBase64)
    .describe('the PNG or JPEG file as base64 (a data: URL is accepted), at most 300 KB'),
});
export type LogoUploadInput = z.input<typeof logoUploadSchema>;
