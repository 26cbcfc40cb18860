/** Name lists for the simulated directory: people of many origins, and small businesses. */

// prettier-ignore
export const FIRST_NAMES: readonly string[] = [
  'Maya', 'Liam', 'Aisha', 'Mateo', 'Priya', 'Noah', 'Sofía', 'Hiroshi', 'Amara', 'Ethan',
  'Mei', 'Omar', 'Chloé', 'Diego', 'Fatima', 'Lucas', 'Yuki', 'Kwame', 'Elena', 'Ravi',
  'Zara', 'Jamal', 'Ingrid', 'Carlos', 'Nadia', 'Wei', 'Grace', 'Tomás', 'Leila', 'Samuel',
  'Ananya', 'Jonas', 'Chiamaka', 'Daniel', 'Hana', 'Andrés', 'Olivia', 'Arjun', 'Freya', 'Malik',
  'Camila', 'Kenji', 'Amelia', 'Tariq', 'Lucía', 'Minjun', 'Esther', 'Emeka', 'Isabella', 'Dmitri',
  'Rosa', 'Hamza', 'Ava', 'Santiago', 'Mariam', 'Felix', 'Jiwoo', 'Layla', 'Marcus', 'Ngozi',
  'Elif', 'Oscar', 'Thandiwe', 'Paulo', 'Siobhan', 'Rahul', 'Harper', 'Bilal', 'Valentina', 'Jin',
  'Naomi', 'Kofi', 'Astrid', 'Javier', 'Yasmin', 'Theo', 'Anjali', 'Sebastián', 'Imani', 'Luca',
  'Keiko', 'Tyrone', 'Zeynep', 'Matteo', 'Aaliyah', 'Björn', 'Nia', 'Rafael', 'Sunita', 'Caleb',
  'Amir', 'Lena', 'Takumi', 'Abena', 'Gabriel', 'Fiona', 'Kai', 'Renée', 'Hassan', 'Julia',
];

// prettier-ignore
export const LAST_NAMES: readonly string[] = [
  'Chen', 'Okafor', 'García', 'Patel', 'Nguyen', 'Smith', 'Kim', 'Müller', 'Rossi', 'Haddad',
  'Johnson', 'Silva', 'Kowalski', 'Tanaka', 'Mensah', "O'Brien", 'Hernández', 'Singh', 'Petrov', 'Andersson',
  'Williams', 'Yilmaz', 'Dubois', 'Khan', 'Park', 'Lopez', 'Adeyemi', 'Jensen', 'Cohen', 'Nakamura',
  'Martínez', 'Brown', 'Gupta', 'Wang', 'Schmidt', 'Murphy', 'Diallo', 'Santos', 'Novak', 'Ali',
  'Kaur', 'Fernandes', 'Walker', 'Li', 'Moreau', 'Hoang', 'Rahman', 'Bianchi', 'Thompson', 'Ndlovu',
  'Sato', 'Rodríguez', 'Levy', 'Ortiz', 'Papadopoulos', 'Zhang', 'Johansson', 'Davis', 'Chowdhury', 'Reyes',
  'Horvat', 'Abdullah', 'Lee', 'Mwangi', 'Popescu', 'Taylor', 'Suzuki', 'Cruz', 'Hassan', 'Bakker',
  'Wilson', 'Das', 'Morales', 'Eriksen', 'Clarke', 'Osei', 'Yamamoto', 'Vargas', 'Fischer', 'Kelly',
  'Banerjee', 'Torres', 'Lindqvist', 'Jackson', 'Huang', 'Ramos', 'Okonkwo', 'Martin', 'Costa', 'Ibrahim',
  'Hughes', 'Castillo', 'Liu', 'Mahmoud', 'Volkov', 'Anderson', 'Mendoza', 'Farah', 'Nowicki', 'Bergström',
];

// prettier-ignore
export const COMPANY_NAMES: readonly string[] = [
  'Northwind', 'Bluebird', 'Cedar Ridge', 'Harborview', 'Summit', 'Brightline', 'Riverside', 'Oakmont',
  'Pinecrest', 'Silverline', 'Granite State', 'Lakeshore', 'Redwood', 'Meridian', 'Evergreen', 'Ironbridge',
  'Sunrise', 'Westfield', 'Copperleaf', 'Blue Harbor', 'Maplewood', 'Keystone', 'Horizon', 'Stonegate',
  'Clearwater', 'Foxglove', 'Parkside', 'Crescent', 'Golden Gate', 'Prairie', 'Bayside', 'Elm Street',
];

// prettier-ignore
export const COMPANY_KINDS: readonly string[] = [
  'Logistics', 'Dental Care', 'Insurance Group', 'Plumbing & Heating', 'Auto Repair', 'Realty', 'Bakery',
  'Law Offices', 'Veterinary Clinic', 'Construction', 'Pharmacy', 'Travel', 'Accounting', 'Fitness',
  'Property Management', 'Medical Group', 'Electric', 'Landscaping', 'Hotel', 'Moving & Storage', 'Roofing',
  'Print Shop', 'Florists', 'Solar', 'Credit Union', 'Home Health', 'Pet Supplies', 'Catering',
];

export const COMPANY_SUFFIXES: ReadonlyArray<readonly [string, number]> = [
  ['', 6],
  [' LLC', 2],
  [' Inc.', 1],
  [' Ltd', 1],
];
