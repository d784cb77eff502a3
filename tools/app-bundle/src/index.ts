export { APPS, bundleFolder, type AppBundle } from './apps';
export { buildApp } from './build-app';
