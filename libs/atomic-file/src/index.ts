export { serialQueue } from './serial-queue';
export { writeFileAtomic, type AtomicWriteOptions } from './write-file-atomic';
