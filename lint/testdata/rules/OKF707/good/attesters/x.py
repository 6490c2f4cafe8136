def attest(receipt):
    return {'ok': True}
