// The test runner's mocha globals (no @types/mocha in the workspace).
declare function describe(title: string, body: () => void): void;
declare function it(title: string, body: () => void | Promise<unknown>): void;
declare function before(body: () => void | Promise<unknown>): void;
declare function after(body: () => void | Promise<unknown>): void;
declare function beforeEach(body: () => void | Promise<unknown>): void;
declare function afterEach(body: () => void | Promise<unknown>): void;
