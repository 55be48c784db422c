import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { zReport } from '#support/renderer/fixtures';
import { OtherIncome } from './other-income';

describe('Other income on this account', () => {
  it('shows nothing unless the report carries other income', () => {
    const { container } = render(<OtherIncome report={zReport({ otherIncome: null })} />);
    expect(container.textContent).toBe('');
  });

  it('counts received and rejected transfers apart from the sales, and lists each once', () => {
    render(
      <OtherIncome
        report={zReport({
          otherIncome: {
            success: { count: 1, amountKobo: 730_050 },
            failed: { count: 1, amountKobo: 5_000 },
            transfers: [
              {
                sessionId: 'S1',
                reference: 'POS-1',
                amountKobo: 730_050,
                status: 'success',
                at: 0,
              },
              { sessionId: 'S2', reference: null, amountKobo: 5_000, status: 'failed', at: 1 },
            ],
          },
        })}
      />,
    );
    expect(screen.getByTestId('other-income-count').textContent).toBe('1');
    expect(screen.getByTestId('other-income-amount').textContent).toBe('₦7,300.50');
    expect(screen.getByTestId('other-income').textContent).toContain(
      'rejected by the provider: 1 (₦50.00)',
    );
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByText(/session S2/).textContent).toContain('rejected');
  });
});
