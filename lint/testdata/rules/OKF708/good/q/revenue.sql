SELECT @year
