// @ts-check
import fs from 'node:fs'
import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import importX from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import jsxA11y from 'eslint-plugin-jsx-a11y'

// Layer boundaries (STYLE.md), checked rather than remembered:
// web: ui/lib -> features -> app, and a feature never imports another feature;
// contract imports neither server nor web; server SQL lives only in queries.ts and migrations.
const webFeatures = fs.existsSync('packages/web/src/features')
  ? fs
      .readdirSync('packages/web/src/features', { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : []

// Server: a module reaches another only through its service (never its queries or routes), and
// nothing in db/ imports a module (the modules sit above the database layer).
const serverModulesDir = 'packages/server/src/modules'
const serverModules = fs.existsSync(serverModulesDir)
  ? fs
      .readdirSync(serverModulesDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : []
const moduleZones = serverModules.map((m) => ({
  target: `./${serverModulesDir}/${m}`,
  from: serverModules
    .filter((o) => o !== m)
    .flatMap((o) => [
      `./${serverModulesDir}/${o}/queries.ts`,
      `./${serverModulesDir}/${o}/routes.ts`,
    ]),
  message: 'A module reaches another only through its service.',
}))

// Fastify stays at the edge: routes, the http/ layer, the app and the processes that serve it.
const noFastify = {
  name: 'fastify',
  message:
    'Fastify belongs in routes.ts and http/; services and jobs take plain values (a Logger from logger.ts).',
}
const noFastifyPlugins = {
  group: ['@fastify/*'],
  message: 'Fastify belongs in routes.ts and http/.',
}
const kyselyInQueries = {
  name: 'kysely',
  message: 'SQL lives in queries.ts only.',
  allowTypeImports: true,
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'bench/results/**',
      'e2e/.artifacts/**',
      '**/*.d.mts',
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX },
    // import-x reads the modules an import leads to only when it knows how to parse them: without
    // these it skips every .ts file, and no-cycle finds nothing.
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      // An import cycle makes module start-up order matter (a value read before its module ran).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './packages/contract',
              from: ['./packages/server', './packages/web'],
              message: 'The contract imports neither server nor web.',
            },
            { target: './packages/server', from: './packages/web' },
            { target: './packages/web', from: './packages/server' },
            {
              target: ['./packages/web/src/ui', './packages/web/src/lib'],
              from: ['./packages/web/src/features', './packages/web/src/app'],
              message: 'Shared ui/lib sit below features and app.',
            },
            {
              target: './packages/web/src/features',
              from: './packages/web/src/app',
              message: 'Features do not import the app layer.',
            },
            ...moduleZones,
            {
              target: './packages/server/src/db',
              from: [`./${serverModulesDir}`, './packages/server/src/seed'],
              message: 'db/ sits below the modules: nothing in it imports one.',
            },
            ...webFeatures.map((f) => ({
              target: `./packages/web/src/features/${f}`,
              from: './packages/web/src/features',
              except: [`./${f}`],
              message: 'A feature never imports another feature; compose them in app/.',
            })),
          ],
        },
      ],
    },
  },
  {
    // React's rules of hooks and checked dependency lists, and the accessibility rules of JSX,
    // for the browser app (axe checks the rendered pages; these catch it in the source).
    files: ['packages/web/src/**/*.{ts,tsx}'],
    ...jsxA11y.flatConfigs.recommended,
    plugins: { 'react-hooks': reactHooks, ...jsxA11y.flatConfigs.recommended.plugins },
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // A scrolling region takes the keyboard's focus (axe: scrollable-region-focusable).
      'jsx-a11y/no-noninteractive-tabindex': [
        'error',
        { tags: [], roles: ['tabpanel', 'region'], allowExpressionValues: true },
      ],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['packages/server/src/modules/**/*.ts'],
    ignores: [
      'packages/server/src/modules/**/queries.ts',
      'packages/server/src/modules/**/*.test.ts',
      'packages/server/src/modules/**/routes.ts',
      'packages/server/src/modules/admin/route-kit.ts',
      // The HTTP server's own instruments (request timing hooks), served by the ops module.
      'packages/server/src/modules/ops/metrics*.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [kyselyInQueries, noFastify], patterns: [noFastifyPlugins] },
      ],
    },
  },
  {
    files: [
      'packages/server/src/modules/**/routes.ts',
      'packages/server/src/modules/admin/route-kit.ts',
      'packages/server/src/modules/ops/metrics*.ts',
    ],
    rules: { 'no-restricted-imports': ['error', { paths: [kyselyInQueries] }] },
  },
  {
    files: [
      'packages/server/src/jobs/**/*.ts',
      'packages/server/src/db/**/*.ts',
      'packages/server/src/seed/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': ['error', { paths: [noFastify], patterns: [noFastifyPlugins] }],
    },
  },
  {
    // Decision 045: a transaction goes through db/transaction.ts's inTransaction, which runs it
    // again when PostgreSQL aborts it to break a deadlock (a bare one answered that with a 500).
    files: ['packages/server/src/**/*.ts'],
    ignores: ['packages/server/src/**/*.test.ts', 'packages/server/src/db/transaction.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='transaction'][arguments.length=0]",
          message:
            'Use inTransaction (db/transaction.ts): it runs the work again when PostgreSQL aborts it.',
        },
        {
          // The development OIDC provider is imported with import() where it is mounted, so a
          // process without it never loads oidc-provider (modules/sso/setup.ts).
          selector: "ImportDeclaration[importKind!='type'][source.value=/idp\\/provider(\\.ts)?$/]",
          message:
            'Load the development provider with import() where it is mounted: oidc-provider is megabytes a process without it should not carry.',
        },
      ],
    },
  },
  {
    // Kysely's migration guide: migrations are typed against Kysely<any>, never the app's schema.
    files: ['packages/server/src/db/migrations/*.ts', 'packages/server/src/db/migrate.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', '**/test/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // The project's own JavaScript (scripts/, this file): Node programs in no tsconfig, so the
    // type-aware rules are off and Node's globals are declared.
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: globals.node },
    rules: {
      ...js.configs.recommended.rules,
      // @typescript-eslint/no-unused-vars above covers it, with the project's `_` convention.
      'no-unused-vars': 'off',
    },
  },
)
