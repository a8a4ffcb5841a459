// A captured tool result replayed through the fixture server to every client line and its discovery modes.
import { CLIENT_LINES, type Capture, type ClientLine, type Matrix } from '../probe/core/domain.ts';
import { captureCases } from '../probe/core/capture-cases.ts';
import { defineMatrix } from '../probe/core/define.ts';
import type { ExpectRule } from '../probe/core/expect-spec.ts';

export function replayMatrix(capture: Capture, label: string, rules: readonly ExpectRule[], lines: readonly ClientLine[] = CLIENT_LINES): Matrix {
  const scenarios = captureCases(capture, label, rules, lines);
  return defineMatrix({ name: 'replay', title: `replay of ${label}`, source: `${label} (a captured tools/list tool and tools/call result)`, scenarios });
}
