import { err, ok, type Result } from 'neverthrow';
import type { PiClient } from '@pi/client';
import { RemoteError, type ExposureDescription, type HostDescription, type ResultDescription } from '@pi/remote';
import { EXIT } from '../exit-codes';
import { reportError, type Output } from '../output';
import { summarizeSchema } from '../schema-summary';

/** `pi services [service]`: what the host serves, for people, or its description as JSON. */
export async function servicesCommand(
  client: PiClient,
  operands: readonly string[],
  json: boolean,
  io: Output,
): Promise<number> {
  const described = await client.describe();
  const [only] = operands;
  const chosen = only === undefined ? ok(described) : oneService(described, only);
  if (chosen.isErr()) return reportError(io, chosen.error, json);
  if (json) io.out(JSON.stringify(only === undefined ? chosen.value : chosen.value.services[0]));
  else for (const line of describeForPeople(chosen.value)) io.out(line);
  return EXIT.ok;
}

function oneService(description: HostDescription, id: string): Result<HostDescription, RemoteError> {
  const service = description.services.find((candidate) => candidate.id === id);
  if (service !== undefined) return ok({ ...description, services: [service], interactions: [] });
  const services = description.services.map((candidate) => candidate.id);
  return err(
    new RemoteError('unknown_service', `Unknown service "${id}"; this host serves: ${services.join(', ')}`, {
      services,
    }),
  );
}

/** One block per service: its methods as signatures, then its state cells and event streams. */
export function describeForPeople(description: HostDescription): string[] {
  const lines: string[] = [];
  for (const service of description.services) {
    lines.push(service.id, ...exposureLines(service, '  '));
  }
  for (const interaction of description.interactions) {
    lines.push(
      `interaction ${interaction.id}: ${summarizeSchema(interaction.request)} → ${summarizeSchema(interaction.response)}`,
    );
  }
  return lines;
}

function exposureLines(exposure: ExposureDescription, indent: string): string[] {
  const lines: string[] = [];
  for (const [name, method] of Object.entries(exposure.methods)) {
    const args = method.args.map((schema) => summarizeSchema(schema)).join(', ');
    lines.push(`${indent}${name}(${args}): ${resultText(method.result)}`);
    if (method.result.kind === 'remote' && method.result.exposure !== null) {
      lines.push(...exposureLines(method.result.exposure, `${indent}    `));
    }
  }
  for (const [cell, schema] of Object.entries(exposure.state))
    lines.push(`${indent}state ${cell}: ${summarizeSchema(schema)}`);
  for (const [stream, schema] of Object.entries(exposure.events)) {
    lines.push(`${indent}events ${stream}: ${summarizeSchema(schema)}`);
  }
  return lines;
}

function resultText(result: ResultDescription): string {
  switch (result.kind) {
    case 'value':
      return summarizeSchema(result.schema);
    case 'void':
      return 'void';
    case 'remote':
      return 'reference';
  }
}
