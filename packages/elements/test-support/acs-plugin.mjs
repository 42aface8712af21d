/**
 * A test-runner command that answers the sandbox's bank page inside the challenge frame the way a
 * shopper would (type the code, press a button); the frame is cross-origin, so the page cannot.
 * Payload: `{ otp?: string, button: 'submit' | 'cancel' }`.
 */
export function acsPlugin() {
  return {
    name: 'pg-acs',
    async executeCommand({ command, payload, session }) {
      if (command !== 'pg-acs') return undefined;
      const page = session.browser.getPage(session.id);
      const deadline = Date.now() + 10_000;
      let frame;
      while (!frame && Date.now() < deadline) {
        frame = page
          .frames()
          .find((f) => f.url().includes('/_acs/') && !f.url().includes('/method'));
        if (!frame) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      if (!frame) throw new Error('no bank page in any frame');
      await frame.waitForSelector('#otp', { timeout: 10_000 });
      if (payload.otp) await frame.type('#otp', payload.otp);
      await frame.click(`button[value=${payload.button}]`);
      return true;
    },
  };
}
