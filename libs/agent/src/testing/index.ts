export { createDeferred, type Deferred } from '../deferred';
export {
  createSessionDirectory,
  harnessTestBed,
  nextEvent,
  readSessionLines,
  recordEvents,
  testHarnessOptions,
  type HarnessTestBed,
  type SessionDirectory,
  type TestHarnessSetup,
} from './harness-fixture';
export {
  createScriptedProvider,
  type ScriptStep,
  type ScriptedProvider,
  type ScriptedProviderOptions,
} from './scripted-provider';
export {
  WINDOWED_MODEL,
  text as textAnswer,
  windowedProvider,
  type WindowedProvider,
  type WindowedProviderOptions,
} from './windowed-provider';
export { FaultyDisk, type DiskFault } from './faulty-disk';
