# Sourced by the benches that need the big office (reports.sh, isolation.sh), after
# bench/lib.sh's `office --participants 100000 --requests 1000000` (about 3 minutes): adds
# what the seed leaves out, once. A KEEP folder keeps it for later runs.

# Fiscal years and budgets: the seed assigns years only when some exist, and the database is
# created by the seed itself, so they are added here once, straight into the file (a bench
# fixture, not an app path): two years covering every seeded day, each request put in the year
# of its submission (or creation) day, one budget line per year × program × fund × account, and
# one approval row per approved request (the seed writes no activity log, whose trigger fills
# request_approvals, so the all-approvals report would be empty).
# fiscal_year_id is not watched by the kept totals' triggers (000031), so they stay right.
if [ "$(sqlite3 "$WORK/bench.db" 'SELECT COUNT(*) FROM fiscal_years')" = 0 ]; then
  # -bail: a failure (a full disk) stops at once and the transaction goes with it, rather than
  # leaving the years without their requests and approvals.
  /usr/bin/time -f "fiscal years and budgets: %e s" sqlite3 -bail "$WORK/bench.db" <<SQL
BEGIN;
INSERT INTO fiscal_years (name, start_date, end_date, created_at) VALUES
  ('$FY0_NAME', '$FY0_START', '$FY0_END', '$FY0_START'),
  ('$FY1_NAME', '$FY1_START', '$FY1_END', '$FY1_START');
UPDATE payment_requests SET fiscal_year_id = (SELECT y.id FROM fiscal_years y
  WHERE COALESCE(payment_requests.submitted_on, date(payment_requests.created_at)) BETWEEN y.start_date AND y.end_date);
INSERT INTO budget_lines (fiscal_year_id, mentor_program_id, fund_id, expense_account_id, amount_cents, created_at, updated_at)
  SELECT y.id, p.id, f.id, e.id, 250000000 + 1000 * ((p.id * 31 + f.id * 7 + e.id) % 97),
    '$FY0_START', '$FY0_START'
  FROM fiscal_years y, mentor_programs p, funds f, expense_accounts e;
INSERT INTO request_approvals (id, payment_request_id, approved_at, approver_user_id, approval_code_id, fund_id,
    expense_account_id, fiscal_year_id, requested_cents, approved_cents)
  SELECT 100000000 + id, id, approved_at, 1, approval_code_id, fund_id, expense_account_id, fiscal_year_id,
    requested_cents, approved_cents FROM payment_requests WHERE approved_at IS NOT NULL;
COMMIT;
SQL
fi
