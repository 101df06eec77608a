// Plain CommonJS, so jest needs no transform. One fake for the whole run: global-setup.cjs
// starts it before any test file and global-teardown.cjs stops it after the last one.
/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testMatch: ['<rootDir>/*.recipe.cjs'],
  testEnvironment: 'node',
  maxWorkers: 2,
  transform: {},
  globalSetup: '<rootDir>/global-setup.cjs',
  globalTeardown: '<rootDir>/global-teardown.cjs',
};
