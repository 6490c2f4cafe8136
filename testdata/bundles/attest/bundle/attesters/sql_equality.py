"""A Python attester in the shape of Google's reference (attest(*, sanctioned_sql, receipt,
claimed_value) returning {ok, reason, details}). okf runs it through its adapter (D18)."""
import re


def _canonical(sql):
    sql = re.sub(r"--[^\n]*", " ", sql)
    sql = re.sub(r"/\*.*?\*/", " ", sql, flags=re.S)
    return " ".join(sql.split()).rstrip(";").strip().upper()


def attest(*, sanctioned_sql, receipt, claimed_value):
    print("debug: this goes to stderr, not into the verdict")
    executed = receipt.get("executed_sql")
    if executed is None:
        return {"ok": False, "reason": "receipt has no executed_sql", "details": {}}
    if _canonical(executed) != _canonical(sanctioned_sql):
        return {
            "ok": False,
            "reason": "executed SQL differs from the sanctioned computation",
            "details": {"sanctioned": _canonical(sanctioned_sql), "executed": _canonical(executed)},
        }
    result = receipt.get("result") or []
    if claimed_value is not None:
        if not result or float(result[0]) != float(claimed_value):
            return {
                "ok": False,
                "reason": "claimed value does not equal result[0]",
                "details": {"claimed": claimed_value, "result": result},
            }
    return {"ok": True, "reason": None, "details": {"canonical_sql": _canonical(sanctioned_sql)}}
