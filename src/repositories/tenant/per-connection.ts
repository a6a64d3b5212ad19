/**
 * One value per database connection, made on first use and dropped with the
 * connection: the remembered totals and offset anchors are valid only for
 * the connection that read them (TenantScope.connectionToken names it).
 */
export function perConnection<T>(make: () => T): (token: object) => T {
  const values = new WeakMap<object, T>();
  return (token) => {
    let value = values.get(token);
    if (value === undefined) {
      value = make();
      values.set(token, value);
    }
    return value;
  };
}
