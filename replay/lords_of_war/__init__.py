"""Lords of War specifics of the record: views (hidden information), explanations, record moves, and the
events -> actions reconstruction that import and ``warlog verify`` re-decide through the rules."""
