/** Why an Ogg Opus file could not be read. */
export type OggErrorCode = 'truncated' | 'bad_capture' | 'bad_crc' | 'not_opus' | 'bad_header';

/** Thrown by readOggOpus: `code` says what is wrong, the message where. */
export class OggError extends Error {
  override readonly name = 'OggError';

  constructor(
    readonly code: OggErrorCode,
    message: string,
  ) {
    super(message);
  }
}
