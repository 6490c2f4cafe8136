SELECT SUM(amount) FROM finance.revenue WHERE fiscal_year = @year
