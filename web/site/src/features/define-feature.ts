import type { Component } from 'vue';
import type { ReportSectionId } from '../lib/report-sections';

/**
 * A tool of the site: a folder of its own under tools/ (its page, its
 * measuring code, its report section, its strings), found by its `tool.ts`
 * (tools/registry.ts), so adding a tool touches no shared file but the main
 * languages' navigation label (`nav.<slug>`). `tool.ts` stays tiny: it is in
 * the first page's bundle; everything it points to loads on demand.
 */
export interface Tool {
  /** The page's route name, its path (`/<slug>`) and its strings' namespace. */
  slug: string;
  /** Where the navigation lists it, smaller first. */
  order: number;
  page: () => Promise<{ default: Component }>;
  /** The report section the tool fills, and the view `/r/<id>` shows it with. */
  report?: { section: ReportSectionId; view: () => Promise<{ default: Component }> };
}

export const defineTool = (tool: Tool): Tool => tool;
