/**
 * Back-office reports in the reader's language (issue 14 items 3–4), in Chromium against the real stack: an
 * administrator who reads German downloads the job statistics as CSV (German headers, `;` with the comma) and as
 * XLSX (read back with exceljs), and finds the German display name of a built-in model in the model form
 * (screenshots at 1280 and 375 px).
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { loginAdmin } from './admin-helpers';
import { acceptCookies } from './helpers';

test.beforeEach(async ({ context, baseURL }) => {
  await acceptCookies(context, baseURL!);
});

test('reports in German: the job statistics as CSV and XLSX; the model form shows the German name', async ({ page, baseURL }) => {
  await loginAdmin(page);
  // the user's own language setting wins over a cookie once signed in: set it on the profile
  expect((await page.request.patch('/api/users/me', { data: { language: 'de' } })).ok()).toBeTruthy();
  await page.context().addCookies([{ name: 'lng', value: 'de', url: baseURL! }]);
  try {
    await page.goto('/admin/jobs');
    await expect(page.getByRole('link', { name: 'Job-Statistik exportieren' })).toBeVisible();

    const csvDownload = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Job-Statistik exportieren' }).click();
    const csv = await csvDownload;
    expect(csv.suggestedFilename()).toMatch(/^jobs-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync((await csv.path())!, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text.slice(1).split('\r\n')[0]).toMatch(/^Auftrags-ID;Auftragsdatum \(UTC\);Besitzer;.*;Dauer \(s\);Wartezeit \(s\);/);

    const xlsxDownload = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Auftragsstatistik als Excel (XLSX)' }).click();
    const xlsx = await xlsxDownload;
    expect(xlsx.suggestedFilename()).toMatch(/^jobs-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await xlsx.path())!);
    expect(book.worksheets[0].name).toBe('Aufträge');
    expect(book.worksheets[0].getRow(1).getCell(1).value).toBe('Auftrags-ID');

    await page.goto('/admin/compute-compute-models-registry');
    await page.getByTestId('model-actions-grain-size').click();
    await page.getByRole('menuitem', { name: 'Bearbeiten' }).click();
    const dialog = page.getByRole('dialog', { name: 'Modell bearbeiten' });
    await expect(dialog.getByRole('textbox', { name: 'Angezeigter Name (Deutsch)' })).toHaveValue('Korngröße (ASTM E112)');
    if (process.env.E2E_SHOTS) {
      await page.screenshot({ path: `${process.env.E2E_SHOTS}/model-form-1280.png` });
      await page.setViewportSize({ width: 375, height: 800 });
      await page.screenshot({ path: `${process.env.E2E_SHOTS}/model-form-375.png` });
      await page.keyboard.press('Escape');
      await page.goto('/admin/jobs');
      await expect(page.getByRole('link', { name: 'Auftragsstatistik als Excel (XLSX)' })).toBeVisible();
      await page.screenshot({ path: `${process.env.E2E_SHOTS}/jobs-375.png` });
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto('/admin/jobs');
      await expect(page.getByRole('link', { name: 'Auftragsstatistik als Excel (XLSX)' })).toBeVisible();
      await page.screenshot({ path: `${process.env.E2E_SHOTS}/jobs-1280.png` });
    }
  } finally {
    await page.request.patch('/api/users/me', { data: { language: 'en' } });
  }
});
