export {
  GIT_TEST_ENV,
  commitEverything,
  git,
  initRepository,
  removeDirectory,
  temporaryDirectory,
  writeProjectFile,
} from './testing/git-repository';
