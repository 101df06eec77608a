import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a minted thumbnail URL works. */
export const THUMBNAIL_LIFETIME_MS = 60 * 60 * 1000;

/** A 1x1 PNG: small, valid, and enough for clients that download or display thumbnails. */
export const THUMBNAIL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export interface ThumbnailTicket {
  readonly serverId: number;
  readonly contentId: number;
  readonly expires: number;
}

const TOKEN = /^(\d{4,5})-(\d{1,15})-(\d{1,15})-([\w-]{22})$/;

/**
 * Thumbnail URLs are signed tickets rather than stored tokens: minting one costs no memory, so a
 * sandbox polled for hours does not grow, and a forged or edited URL is rejected.
 */
export class ThumbnailSigner {
  private readonly secret = randomBytes(32);

  token(ticket: ThumbnailTicket): string {
    const body = `${ticket.serverId}-${ticket.contentId}-${ticket.expires}`;
    return `${body}-${this.sign(body)}`;
  }

  /** The ticket in a token, if the signature holds; expiry is the caller's to check. */
  read(token: string): ThumbnailTicket | undefined {
    const match = TOKEN.exec(token);
    if (!match) return undefined;
    const body = `${match[1]}-${match[2]}-${match[3]}`;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(match[4]!);
    if (!timingSafeEqual(expected, given)) return undefined;
    return { serverId: Number(match[1]), contentId: Number(match[2]), expires: Number(match[3]) };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url').slice(0, 22);
  }
}
