import { describe, expect, it } from 'vitest';
import { RecordSplitter } from './output-records';

function collect(kind: 'nul' | 'newline', chunks: string[], maxRecordBytes?: number) {
  const records: string[] = [];
  const splitter = new RecordSplitter(kind, (record) => void records.push(record), maxRecordBytes);
  const problems = chunks.map((chunk) => splitter.push(Buffer.from(chunk, 'utf8')));
  return { records, problems, end: splitter.end() };
}

describe('splitting command output into records', () => {
  it('joins records split across chunks, keeping empty ones', () => {
    expect(collect('nul', ['a\0b', 'c\0', '\0d\0']).records).toEqual(['a', 'bc', '', 'd']);
  });

  it('decodes a multi-byte character split between chunks', () => {
    const bytes = Buffer.from('é\0', 'utf8');
    const records: string[] = [];
    const splitter = new RecordSplitter('nul', (record) => void records.push(record));
    splitter.push(bytes.subarray(0, 1));
    splitter.push(bytes.subarray(1));
    expect(records).toEqual(['é']);
  });

  it('takes a last line without newline as a line, but a NUL record left open is a problem', () => {
    expect(collect('newline', ['one\ntwo']).records).toEqual(['one', 'two']);
    expect(collect('nul', ['one\0two']).end).toMatch(/middle of a record/);
  });

  it('refuses a record longer than the limit without holding more of it', () => {
    const { problems } = collect('nul', ['x'.repeat(10), 'x'.repeat(10)], 16);
    expect(problems).toEqual([undefined, 'a record is longer than 16 bytes']);
  });

  it('stops at the first problem the consumer reports', () => {
    const seen: string[] = [];
    const splitter = new RecordSplitter('newline', (record) => {
      seen.push(record);
      return record === 'bad' ? 'bad record' : undefined;
    });
    expect(splitter.push(Buffer.from('ok\nbad\nnever\n'))).toBe('bad record');
    expect(seen).toEqual(['ok', 'bad']);
  });
});
