SELECT sum(amount) FROM orders WHERE day = @day;
