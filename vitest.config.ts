// Unit and API tests (Playwright specs in e2e/ run separately). The API suite runs on the embedded
// PostgreSQL and, when one is reachable (TEST_DATABASE_URL or 127.0.0.1:5432), on an external server too.
import net from 'node:net';
import { type ViteUserConfig, defineConfig } from 'vitest/config';

function reachable(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect({ host: u.hostname, port: Number(u.port || 5432) });
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1000, () => done(false));
    s.on('connect', () => done(true));
    s.on('error', () => done(false));
  });
}

export default defineConfig(async (): Promise<ViteUserConfig> => {
  const external = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const withExternal = process.env.ADMINEASE_TEST_EXTERNAL !== '0' && (await reachable(external));
  const shared = { globalSetup: ['src/server/test/global-setup.ts'], testTimeout: 30_000, hookTimeout: 120_000 };
  return {
    test: {
      pool: 'forks' as const,
      maxWorkers: 2,
      projects: [
        {
          extends: true as const,
          test: { ...shared, name: 'embedded', include: ['src/**/*.test.ts', 'src/**/*.test.tsx'], env: { AE_DB_TARGET: 'embedded' } },
        },
        ...(withExternal
          ? [
              {
                extends: true as const,
                test: {
                  ...shared,
                  name: 'external-pg',
                  include: ['src/server/**/*.test.ts'],
                  // speech never touches the database; the lifecycle test runs its own external-server case; the production
                  // start uses the embedded database as `npm start` does
                  // the large conversation set tests understanding, not the database: it runs once, on the embedded one
                  exclude: [
                    'src/server/speech/**',
                    'src/server/lifecycle.test.ts',
                    'src/server/production-start.test.ts',
                    'src/server/assistant/dialogues-wild.test.ts',
                  ],
                  env: { AE_DB_TARGET: 'external' },
                },
              },
            ]
          : []),
      ],
    },
  };
});
