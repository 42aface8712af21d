import { randomBytes } from 'node:crypto';

/**
 * 128 random bits as 32 hex digits in four dashed groups of eight. The dashes matter: order
 * references and refund references reach logs, and an unbroken run of 13 or more digits that
 * happens to pass the Luhn check reads as a card number to every log scanner.
 */
export const randomId = (): string => randomBytes(16).toString('hex').match(/.{8}/g)!.join('-');

export const RANDOM_ID = /^[0-9a-f]{8}(?:-[0-9a-f]{8}){3}$/;
