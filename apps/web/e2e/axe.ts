import type { Page } from '@playwright/test';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { lowContrastsAt } from './contrast';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules) in the page. What axe's `color-contrast` rule could
 * not decide (its "incomplete" results: a fixed notice, text over a shadow or an overlap) is
 * measured again from the computed styles (`contrast.ts`), and a contrast below WCAG AA is
 * a violation like the others: white text on a white button would otherwise only be "to
 * review".
 */
export default class AxeBuilder {
  constructor(private readonly page: Page) {}

  async analyze(): Promise<AxeViolation[]> {
    // Evaluated through the browser's debugging protocol, which the page's CSP (no inline
    // scripts) does not govern; the page itself keeps its strict policy.
    await this.page.evaluate(axeSource);
    const { violations, contrastToReview } = await this.page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run: (
              ctx: Document,
              opts: object,
            ) => Promise<{ violations: AxeViolation[]; incomplete: AxeViolation[] }>;
          };
        }
      ).axe;
      const result = await axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      });
      return {
        violations: result.violations.map((v) => ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          nodes: v.nodes.map((n) => ({ target: n.target })),
        })),
        contrastToReview: result.incomplete
          .filter((v) => v.id === 'color-contrast')
          .flatMap((v) => v.nodes.map((n) => n.target)),
      };
    });
    const tooLow: AxeViolation['nodes'] = [];
    const details: string[] = [];
    for (const target of contrastToReview) {
      // A node inside a frame is named by a selector per frame; the portal has none.
      if (target.length !== 1) continue;
      for (const low of await lowContrastsAt(this.page, target[0]!)) {
        tooLow.push({ target });
        details.push(
          `${low.element}: ${low.foreground} on ${low.background}, ${low.ratio}:1 < ${low.required}:1`,
        );
      }
    }
    if (tooLow.length === 0) return violations;
    return [
      ...violations,
      {
        id: 'color-contrast',
        impact: 'serious',
        help: `Elements must meet minimum color contrast ratio thresholds, measured from their computed styles (${details.join('; ')})`,
        nodes: tooLow,
      },
    ];
  }
}
