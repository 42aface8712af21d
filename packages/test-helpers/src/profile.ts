/**
 * The profile the tests' sandboxes run in: `SANDBOX_PROFILE=strict` runs them on the sandbox that
 * answers the least helpful way the spec allows (issue 38), so the money tests prove they rely on
 * no choice of the default one.
 */
export const testProfile = (): 'default' | 'strict' =>
  process.env.SANDBOX_PROFILE === 'strict' ? 'strict' : 'default';
