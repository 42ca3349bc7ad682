import { SearchBox } from './SearchBox.jsx';
import '../common/views.css';

export const routes = [];
export const headerItems = [SearchBox];
