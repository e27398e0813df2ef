# Boot only (KUnit runs before init).
true
