package trust

// DerivesFrom returns the IDs of the bundle's concepts this one cites in its `sources` (§5.1),
// sorted: the first step of its lineage.
func (c *Concept) DerivesFrom() []string { return c.srcIDs }
