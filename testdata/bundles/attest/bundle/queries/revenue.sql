-- Revenue for a fiscal year, the sanctioned form.
SELECT SUM(amount) AS revenue
FROM sales
WHERE year = @year
