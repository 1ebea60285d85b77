import { afterEach, describe, expect, it } from 'vitest';
import { clearStoredSession, PARTICIPANTS_REPORT_COLUMNS_KEY, REIMBURSEMENTS_REPORT_COLUMNS_KEY } from '../../api/storage';
import { DEFAULT_REIMBURSEMENT_COLUMNS } from './reportColumns';
import { DEFAULT_PARTICIPANT_COLUMNS, emailListText, loadColumnChoice, mailtoBcc, parseColumnChoice, saveColumnChoice, toggleColumn } from './participantsReport';

const KNOWN = ['id', 'fullName', 'firstName', 'lastName', 'email', 'phone', 'status', 'roleCode', 'mentorPrograms', 'updatedAt'];

describe('column choice', () => {
  afterEach(() => localStorage.clear());

  it('keeps known columns in the stored order, without repeats', () => {
    expect(parseColumnChoice('email,fullName,bogus,email', KNOWN)).toEqual(['email', 'fullName']);
    expect(parseColumnChoice('bogus', KNOWN)).toBeNull();
    expect(parseColumnChoice(null, KNOWN)).toBeNull();
  });

  it('starts from the default, is kept in local storage, and a logout forgets it', () => {
    expect(loadColumnChoice(KNOWN)).toEqual([...DEFAULT_PARTICIPANT_COLUMNS]);
    saveColumnChoice(['lastName', 'email']);
    expect(localStorage.getItem(PARTICIPANTS_REPORT_COLUMNS_KEY)).toBe('lastName,email');
    expect(loadColumnChoice(KNOWN)).toEqual(['lastName', 'email']);
    clearStoredSession();
    expect(loadColumnChoice(KNOWN)).toEqual([...DEFAULT_PARTICIPANT_COLUMNS]);
  });

  it('keeps each report’s choice apart: the reimbursements start from their own few columns', () => {
    const reimbursements = ['requestId', 'formType', 'payee', 'payeeEmail', 'approvedAt', 'requestedAmount', 'approvedAmount', 'expenseAccount', 'formStatus'];
    const load = () => loadColumnChoice(reimbursements, REIMBURSEMENTS_REPORT_COLUMNS_KEY, DEFAULT_REIMBURSEMENT_COLUMNS);
    expect(load()).toEqual(['requestId', 'payee', 'approvedAt', 'requestedAmount', 'approvedAmount', 'expenseAccount', 'formStatus']);
    saveColumnChoice(['requestId', 'formType', 'approvedAmount'], REIMBURSEMENTS_REPORT_COLUMNS_KEY);
    expect(load()).toEqual(['requestId', 'formType', 'approvedAmount']);
    expect(loadColumnChoice(KNOWN)).toEqual([...DEFAULT_PARTICIPANT_COLUMNS]);
    clearStoredSession();
    expect(load()).toEqual([...DEFAULT_REIMBURSEMENT_COLUMNS]);
  });

  it('adds a column in report order and never removes the last one', () => {
    expect(toggleColumn(['email'], 'fullName', KNOWN)).toEqual(['fullName', 'email']);
    expect(toggleColumn(['fullName', 'email'], 'fullName', KNOWN)).toEqual(['email']);
    expect(toggleColumn(['email'], 'email', KNOWN)).toEqual(['email']);
  });
});

describe('e-mail these participants', () => {
  const people = [
    { fullName: 'Ana Lopez', email: 'ana@example.org' },
    { fullName: 'Bo <Admin>', email: 'bo+x@example.org' },
  ];
  it('lists one name and address per line', () => {
    expect(emailListText(people)).toBe('Ana Lopez <ana@example.org>\nBo Admin <bo+x@example.org>');
  });
  it('puts every address in Bcc, encoded, and gives up when the link is too long', () => {
    expect(mailtoBcc(people)).toBe('mailto:?bcc=ana%40example.org,bo%2Bx%40example.org');
    expect(mailtoBcc([])).toBeNull();
    const many = Array.from({ length: 200 }, (_, i) => ({ fullName: `P ${i}`, email: `person${i}@example.org` }));
    expect(mailtoBcc(many)).toBeNull();
  });
});
