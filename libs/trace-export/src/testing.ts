export { startOtlpReceiver } from './otlp-receiver';
export type { OtlpReceiver, ReceivedSpan } from './otlp-receiver';
