import type { Tool } from './define-tool';

export type { Tool };

// Each `tool.ts` imports defineTool from its own module: importing it from
// here, which imports every `tool.ts`, would be a cycle.
const found = import.meta.glob<Tool>('./*/tool.ts', { eager: true, import: 'default' });

/** Every tool, in navigation order. */
export const TOOLS: readonly Tool[] = Object.values(found).sort((a, b) => a.order - b.order);
