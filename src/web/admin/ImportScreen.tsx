// CSV import of people: choose a file, see the dry run row by row (create, update, unchanged, error and why),
// then apply it (one transaction on the server). And the CSV export of everyone.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Download, Upload } from 'lucide-react';
import { Badge, type BadgeTone, Button, EmptyState, ErrorBanner, StatTile, TBody, THead, Table, Td, Th, Tr, useToast } from '../ui';
import { type ImportRow, adminApi, errorText } from './api';
import { Section } from './parts';

const TONE: Record<ImportRow['action'], BadgeTone> = { create: 'success', update: 'accent', unchanged: 'neutral', error: 'danger' };
const LABEL: Record<ImportRow['action'], string> = { create: 'Create', update: 'Update', unchanged: 'Unchanged', error: 'Refused' };
export const CSV_COLUMNS =
  'email, first_name, last_name, employee_code, department, role, user_type, manager, hr_contact, join_date, annual_leave_total, active';

export function ImportScreen() {
  const qc = useQueryClient();
  const toast = useToast();
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [applied, setApplied] = useState(false);
  const dry = useMutation({ mutationFn: (csv: string) => adminApi.importDryRun(csv) });
  const apply = useMutation({
    mutationFn: (csv: string) => adminApi.importApply(csv),
    onSuccess: (r) => {
      setApplied(true);
      void qc.invalidateQueries({ queryKey: ['admin'] });
      toast.success(
        `Import applied: ${r.rows.filter((x) => x.action === 'create').length} created, ${r.rows.filter((x) => x.action === 'update').length} updated`,
      );
    },
  });
  const result = apply.data ?? dry.data;
  const rows = result?.rows ?? [];
  const count = (a: ImportRow['action']) => rows.filter((r) => r.action === a).length;
  const errors = count('error');

  async function choose(f: File | undefined) {
    setApplied(false);
    dry.reset();
    apply.reset();
    if (!f) return setFile(null);
    const text = await f.text();
    setFile({ name: f.name, text });
    dry.mutate(text);
  }

  return (
    <Section
      title="Import and export"
      description={
        <>
          A UTF-8 CSV file with a header row and the columns{' '}
          <span className="font-mono text-xs [overflow-wrap:anywhere]">{CSV_COLUMNS}</span>. Managers and HR contacts by e-mail or employee
          code, also someone further down the same file.
        </>
      }
      actions={
        <a
          href={adminApi.exportUrl}
          download="people.csv"
          className="inline-flex h-10 items-center gap-2 rounded-md bg-white px-4 text-sm font-medium text-gray-800 shadow-sm ring-1 ring-gray-300 ring-inset hover:bg-gray-50"
        >
          <Download className="h-4 w-4" aria-hidden="true" /> Export CSV
        </a>
      }
    >
      <label className="flex cursor-pointer flex-col items-center gap-2 rounded-lg border-2 border-dashed border-gray-300 px-4 py-6 text-center text-sm text-gray-700 hover:border-indigo-400 focus-within:border-indigo-600">
        <Upload className="h-6 w-6 text-gray-500" aria-hidden="true" />
        <span className="font-medium">{file ? file.name : 'Choose a CSV file'}</span>
        <span className="text-xs text-gray-500">Nothing changes until you apply it.</span>
        <input
          type="file"
          accept=".csv,text/csv"
          className="sr-only"
          aria-label="CSV file"
          onChange={(e) => void choose(e.target.files?.[0])}
        />
      </label>

      {dry.isPending && (
        <p className="text-sm text-gray-600" role="status">
          Checking the file…
        </p>
      )}
      {dry.isError && <ErrorBanner title="The file could not be checked">{errorText(dry.error)}</ErrorBanner>}
      {apply.isError && <ErrorBanner title="Not applied: nothing was changed">{errorText(apply.error)}</ErrorBanner>}
      {!file && !dry.isPending && <EmptyState title="No file chosen" description="Choose a file to see what it would change." />}

      {result && (
        <>
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            <StatTile label="Create" value={count('create')} />
            <StatTile label="Update" value={count('update')} />
            <StatTile label="Unchanged" value={count('unchanged')} />
            <StatTile label="Refused" value={errors} />
          </div>
          <div className="flex flex-wrap items-center gap-3">
            {applied ? (
              <Badge tone="success">Applied</Badge>
            ) : (
              <>
                <Button
                  onClick={() => file && apply.mutate(file.text)}
                  loading={apply.isPending}
                  disabled={errors > 0 || rows.length === 0}
                >
                  Apply import
                </Button>
                <span className="text-sm text-gray-600">
                  {errors > 0 ? 'Fix the refused rows and choose the file again.' : `${rows.length} row(s) ready.`}
                </span>
              </>
            )}
          </div>
          {rows.length === 0 ? (
            <EmptyState title="The file has no rows" description="Only a header row was found." />
          ) : (
            <Table caption="Import rows" cards maxHeight="32rem">
              <THead>
                <tr>
                  <Th align="right">Line</Th>
                  <Th>Employee code</Th>
                  <Th>Action</Th>
                  <Th>Problems</Th>
                </tr>
              </THead>
              <TBody>
                {rows.map((r) => (
                  <Tr key={r.line}>
                    <Td label="Line" align="right">
                      {r.line}
                    </Td>
                    <Td label="Employee code">{r.employee_code ?? 'None'}</Td>
                    <Td label="Action">
                      <Badge tone={TONE[r.action]}>{LABEL[r.action]}</Badge>
                    </Td>
                    <Td label="Problems" className={r.errors.length ? 'text-red-800' : 'text-gray-500'}>
                      {r.errors.length ? r.errors.join('; ') : 'None'}
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </>
      )}
    </Section>
  );
}
