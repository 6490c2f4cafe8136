-- Completed orders booked to a fiscal year.
SELECT COUNT(*) AS orders
FROM orders
WHERE fiscal_year = @year
