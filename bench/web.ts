// The web side of the benchmark: the production build's initial JavaScript (gzipped) and each dashboard's
// lazily loaded chunks (from Vite's manifest), and the time until a dashboard with a large queue is usable
// in headless Chromium (sign-in click to table rows on screen and the main thread free).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { ROOT } from './server.js';

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

export interface BundleReport {
  initialJsGzip: number;
  initialCssGzip: number;
  initialFiles: string[];
  dashboards: Array<{ name: string; gzip: number; files: string[] }>;
}

export function buildWeb(outDir: string): void {
  execFileSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir, '--emptyOutDir', '--manifest'],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
}

const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

export function bundleReport(outDir: string): BundleReport {
  const manifestPath = path.join(outDir, '.vite/manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: build with --manifest`);
  const manifest: Record<string, ManifestChunk> = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const closure = (keys: string[], seen = new Set<string>()): Set<string> => {
    for (const k of keys) {
      if (seen.has(k)) continue;
      seen.add(k);
      closure(manifest[k]?.imports ?? [], seen);
    }
    return seen;
  };
  const entries = Object.keys(manifest).filter((k) => manifest[k].isEntry);
  const initial = closure(entries);
  const initialFiles = [...initial].map((k) => manifest[k].file);
  const initialCss = [...initial].flatMap((k) => manifest[k].css ?? []);
  const dashboards = Object.keys(manifest)
    .filter((k) => manifest[k].isDynamicEntry)
    .map((k) => {
      const own = [...closure([k])].filter((x) => !initial.has(x));
      const files = own.map((x) => manifest[x].file);
      return { name: manifest[k].name ?? path.basename(k), gzip: files.reduce((a, f) => a + gz(path.join(outDir, f)), 0), files };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  return {
    initialJsGzip: initialFiles.reduce((a, f) => a + gz(path.join(outDir, f)), 0),
    initialCssGzip: initialCss.reduce((a, f) => a + gz(path.join(outDir, f)), 0),
    initialFiles,
    dashboards,
  };
}

export interface UsableReport {
  email: string;
  queueItems: number;
  rowsShown: number;
  msToRows: number;
  msToUsable: number;
}

/** Signs in through the real sign-in screen and times the dashboard until its queue table is usable. */
export async function dashboardUsable(baseUrl: string, email: string, password: string, queueItems: number): Promise<UsableReport> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(baseUrl);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    const t0 = Date.now();
    await page.getByRole('button', { name: 'Sign In' }).click();
    // Queue rows carry their request id (an empty or loading table has none).
    const rows = page.locator('main[data-testid^="dashboard-"] [data-request-id]');
    await rows
      .first()
      .waitFor({ state: 'visible', timeout: 120_000 })
      .catch(async (err: Error) => {
        // What the page showed instead: a screenshot beside the results and the headings, for the report.
        const shot = path.join(os.tmpdir(), 'adminease-bench-dashboard-usable.png');
        await page.screenshot({ path: shot, fullPage: true }).catch(() => undefined);
        const seen = (
          await page
            .locator('h1, h2, [role="alert"], [role="dialog"] h2')
            .allInnerTexts()
            .catch(() => [])
        ).join(' | ');
        throw new Error(`${err.message.split('\n')[0]} (the page showed: ${seen.slice(0, 300)}; screenshot ${shot})`);
      });
    const msToRows = Date.now() - t0;
    // Usable: the main thread answers (a frame and a task run) once the rows are there.
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0))));
    const msToUsable = Date.now() - t0;
    return { email, queueItems, rowsShown: await rows.count(), msToRows, msToUsable };
  } finally {
    await browser.close();
  }
}
