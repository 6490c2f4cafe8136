"""Attester for computations/revenue.md: the executed SQL must equal the sanctioned SQL."""
import re


def _canon(sql):
    sql = re.sub(r"--[^\n]*", " ", sql)
    return " ".join(sql.split()).lower()


def attest(*, sanctioned_sql, receipt, claimed_value=None):
    if _canon(receipt.get("executed_sql", "")) != _canon(sanctioned_sql):
        return {"ok": False, "reason": "executed SQL differs from the sanctioned computation", "details": {}}
    result = receipt.get("result") or [[None]]
    if claimed_value is not None and float(result[0][0]) != float(claimed_value):
        return {"ok": False, "reason": "claimed value differs from the receipt", "details": {}}
    return {"ok": True, "reason": None, "details": {"run_id": receipt.get("run_id")}}
