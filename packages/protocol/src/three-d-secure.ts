import { z } from 'zod';

/** 3D Secure V1: what the browser posts to the bank (paReq is documented as integer but is a string). */
export const ThreeDSecureV1Schema = z.looseObject({
  acsUrl: z.string().min(1),
  transactionId: z.string().min(1),
  paReq: z.string().min(1),
});
export type ThreeDSecureV1 = z.infer<typeof ThreeDSecureV1Schema>;

const nullableText = z.string().nullable();

/** 3D Secure V2: all six fields are present, unused ones null. */
export const ThreeDSecureV2Schema = z.looseObject({
  tdsMethodContent: nullableText,
  txId: nullableText,
  transactionId: z.string().min(1),
  sessionData: nullableText,
  acsUrl: nullableText,
  creq: nullableText,
});
export type ThreeDSecureV2 = z.infer<typeof ThreeDSecureV2Schema>;

/** Step 2 (method): browser data goes to the bank first, then Step 2 confirm. */
export const ThreeDSecureV2MethodSchema = z.looseObject({
  tdsMethodContent: z.string().min(1),
  txId: z.string().min(1),
  transactionId: z.string().min(1),
  sessionData: z.null(),
  acsUrl: z.null(),
  creq: z.null(),
});
export type ThreeDSecureV2Method = z.infer<typeof ThreeDSecureV2MethodSchema>;

/** Step 3 (challenge): the browser posts creq and sessionData to acsUrl. */
export const ThreeDSecureV2ChallengeSchema = z.looseObject({
  tdsMethodContent: z.null(),
  txId: z.null(),
  transactionId: z.string().min(1),
  sessionData: z.string().min(1),
  acsUrl: z.string().min(1),
  creq: z.string().min(1),
});
export type ThreeDSecureV2Challenge = z.infer<typeof ThreeDSecureV2ChallengeSchema>;

/** Which step a V2 object asks for, or undefined when it is neither shape. */
export function threeDSecureV2Step(v2: ThreeDSecureV2): 'method' | 'challenge' | undefined {
  if (ThreeDSecureV2MethodSchema.safeParse(v2).success) return 'method';
  if (ThreeDSecureV2ChallengeSchema.safeParse(v2).success) return 'challenge';
  return undefined;
}
